import { Clock, DateTime, Effect } from "effect"

/** ISO 8601 UTC text of an instant given in epoch milliseconds. */
export const isoOfMillis = (millis: number): string => DateTime.formatIso(DateTime.makeUnsafe(millis))

/** Epoch milliseconds of ISO 8601 text. */
export const millisOfIso = (iso: string): number => DateTime.toEpochMillis(DateTime.makeUnsafe(iso))

/** The current instant as ISO 8601 UTC text, by the `Clock` in context. */
export const nowIso: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, isoOfMillis)
