import { useEffect, useState } from "preact/hooks"

/** Where the app is mounted; every route is under it. */
export const BASE = "/dashboard"

const listeners = new Set<() => void>()

/** The app's path after the base, starting with "/" ("/" for the inbox). */
const currentPath = () => {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname
  return path === "" ? "/" : path
}

/** Goes to an app path (pushing history, or replacing the entry). */
export const navigate = (path: string, options: { readonly replace?: boolean } = {}) => {
  const url = `${BASE}${path}`
  if (options.replace === true) history.replaceState(null, "", url)
  else history.pushState(null, "", url)
  for (const listener of listeners) listener()
}

/** The current app path and query, re-rendered on navigation and the back button. */
export const useRoute = () => {
  const [route, setRoute] = useState(() => ({ path: currentPath(), search: location.search }))
  useEffect(() => {
    const update = () => setRoute({ path: currentPath(), search: location.search })
    listeners.add(update)
    addEventListener("popstate", update)
    return () => {
      listeners.delete(update)
      removeEventListener("popstate", update)
    }
  }, [])
  return route
}

/** An in-app link's click: navigates without a reload unless the reader asked for a new tab or window. */
export const onLinkClick = (path: string) => (event: MouseEvent) => {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  ) {
    return
  }
  event.preventDefault()
  navigate(path)
}
