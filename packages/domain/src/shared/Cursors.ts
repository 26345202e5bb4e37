import { Context, Effect, Layer } from "effect"
import { InvalidCursor } from "./Pagination.ts"
import { constantTimeEqual, hmacBase64Url } from "./Secrets.ts"

/** The server key behind list cursors: a cursor carries an HMAC over its list and position, so none can be forged or moved. */
export class CursorKey extends Context.Service<
  CursorKey,
  {
    /** The cursor handed to clients: the position cursor followed by its MAC for the list `scope`. */
    readonly seal: (scope: string, cursor: string) => Effect.Effect<string>
    /** The position cursor inside a sealed one, when its MAC holds for the list `scope`. */
    readonly open: (scope: string, sealed: string) => Effect.Effect<string, InvalidCursor>
  }
>()("@svc/domain/CursorKey") {
  static readonly layer = (secret: string) => {
    const mac = (scope: string, cursor: string) => hmacBase64Url(secret, `cursor:${scope}:${cursor}`)
    return Layer.succeed(
      CursorKey,
      CursorKey.of({
        seal: (scope, cursor) => Effect.map(mac(scope, cursor), (tag) => `${cursor}.${tag}`),
        open: (scope, sealed) => {
          const dot = sealed.lastIndexOf(".")
          const cursor = sealed.slice(0, Math.max(dot, 0))
          return Effect.flatMap(mac(scope, cursor), (expected) =>
            dot > 0 && constantTimeEqual(expected, sealed.slice(dot + 1))
              ? Effect.succeed(cursor)
              : Effect.fail(new InvalidCursor({ cursor: sealed }))
          )
        }
      })
    )
  }
}
