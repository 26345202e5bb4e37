/** Peak resident memory of the service process while a scenario runs, sampled from /proc (Linux; elsewhere none). */

import { readFileSync } from "node:fs"

const SAMPLE_EVERY_MS = 200

/** VmRSS of a process in kB, from /proc/<pid>/status; 0 when it cannot be read. */
export const residentKb = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/u.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** The highest RSS of `pid` seen while `run` ran, in MB; undefined where it cannot be read. */
export const withPeakRss = async <A>(
  pid: number | undefined,
  run: () => Promise<A>
): Promise<{ readonly result: A; readonly peakRssMb: number | undefined }> => {
  if (pid === undefined) return { result: await run(), peakRssMb: undefined }
  let peakKb = residentKb(pid)
  const timer = setInterval(() => {
    peakKb = Math.max(peakKb, residentKb(pid))
  }, SAMPLE_EVERY_MS)
  try {
    const result = await run()
    peakKb = Math.max(peakKb, residentKb(pid))
    return { result, peakRssMb: peakKb === 0 ? undefined : Math.round(peakKb / 1024) }
  } finally {
    clearInterval(timer)
  }
}
