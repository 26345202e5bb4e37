import { useCallback, useEffect, useRef, useState } from "preact/hooks"

/** What a load is: not there yet, there, or failed. */
export type Loaded<A> =
  | { readonly state: "loading" }
  | { readonly state: "ready"; readonly value: A; readonly refreshError?: unknown }
  | { readonly state: "failed"; readonly error: unknown }

/**
 * Loads with `load` whenever `deps` change and again on `reload()`; with `everyMs`, polls while the tab is visible and
 * once more as soon as it comes back into view. A reload keeps the last value on screen until the new one arrives, and
 * keeps it when the reload fails (with `refreshError`).
 */
export const useLoad = <A>(
  load: () => Promise<A>,
  deps: ReadonlyArray<unknown>,
  options: { readonly everyMs?: number } = {}
) => {
  const [loaded, setLoaded] = useState<Loaded<A>>({ state: "loading" })
  const generation = useRef(0)
  const latest = useRef(load)
  latest.current = load
  const reload = useCallback(() => {
    const mine = ++generation.current
    return latest.current().then(
      (value) => {
        if (mine === generation.current) setLoaded({ state: "ready", value })
      },
      (error: unknown) => {
        if (mine !== generation.current) return
        // A failed refresh keeps what is on screen and says so; only a first load that fails shows the error alone.
        setLoaded((previous) =>
          previous.state === "ready"
            ? { state: "ready", value: previous.value, refreshError: error }
            : { state: "failed", error }
        )
      }
    )
  }, [])
  useEffect(() => {
    setLoaded({ state: "loading" })
    void reload()
  }, deps)
  useEffect(() => {
    const everyMs = options.everyMs
    if (everyMs === undefined) return
    let timer: ReturnType<typeof setInterval> | undefined
    const start = () => {
      if (timer === undefined) timer = setInterval(() => void reload(), everyMs)
    }
    const stop = () => {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
    }
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        void reload()
        start()
      } else stop()
    }
    if (document.visibilityState === "visible") start()
    document.addEventListener("visibilitychange", onVisibility)
    return () => {
      stop()
      document.removeEventListener("visibilitychange", onVisibility)
    }
  }, [options.everyMs, reload])
  return { loaded, reload }
}

/** The clock, ticking every `everyMs` so that "time left" labels stay true. */
export const useNow = (everyMs = 30_000) => {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
