/** A ledger mode: real money, or the test sandbox. */
export type Mode = "live" | "test"

/**
 * The mode a view opens in, so that it shows one mode and not an empty one: live when live has data, else test when
 * test has, else live.
 */
export const modeWithData = async (hasData: (mode: Mode) => Promise<boolean>): Promise<Mode> =>
  (await hasData("live")) || !(await hasData("test")) ? "live" : "test"
