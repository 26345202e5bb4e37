import { Context } from "effect"

/**
 * Whether the reads of the running request must see every write its caller made: true while the caller's last write
 * is recent (the HTTP layer sets it per request). A persistence adapter that serves some reads from a replica reads
 * them from the primary then; false by default, where a replica's lag of a moment is acceptable.
 */
export const ReadYourWrites = Context.Reference<boolean>("@svc/domain/ReadYourWrites", { defaultValue: () => false })
