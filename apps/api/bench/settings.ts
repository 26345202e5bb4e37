/** The benchmark's knobs, read once from the environment. */

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
export const POOL_SIZE = Number(process.env.DB_POOL_SIZE ?? 10)
export const AGENTS = Number(process.env.BENCH_AGENTS ?? 32)
/** The auth-stream's open-loop arrival rate (authorizations/s) and the closed loop's number of authorizations. */
export const AUTH_RATE = Number(process.env.BENCH_AUTH_RATE ?? 200)
export const AUTH_CARDS = Number(process.env.BENCH_AUTH_CARDS ?? 4000)
/** Which scenario groups run: `spend` (spend requests, direct SQL, replays, balance) and `auth-stream`; both by default. */
export const SCENARIOS = new Set((process.env.BENCH_SCENARIOS ?? "spend,auth-stream").split(",").map((s) => s.trim()))
