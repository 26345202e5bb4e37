import { DEFAULT_FILE_LINK_SECONDS, FileAccess, isoOfMillis, type PresignedUrl, type TeamId } from "@svc/domain"
import { Effect } from "effect"
import { badRequest } from "../../api/shared/index.ts"
import { PublicBaseUrl } from "../middleware/index.ts"
import { internalFailure } from "./Failures.ts"

/** What a presigned-url route was asked: the twin's `download` flag and the lifetime. */
export interface PresignedUrlOptions {
  readonly download?: "true" | "false"
  readonly expireIn?: number
}

/**
 * The presigned URLs of a group's handlers: `presignedUrl(teamId, path, fileName, options)` is the URL of the file
 * `teamId` stores at `path` (the path the service recorded for the resource, never a client's), served by
 * GET /files/presigned. A recorded path outside the team's folder is a defect (500), since every path is checked
 * where it enters.
 */
export const presignedUrls = Effect.gen(function* () {
  const access = yield* FileAccess
  const base = yield* PublicBaseUrl
  const presignedUrl = (teamId: TeamId, path: string, fileName: string | null, options: PresignedUrlOptions) =>
    access
      .presign(teamId, path, {
        lifetimeSeconds: options.expireIn ?? DEFAULT_FILE_LINK_SECONDS,
        download: options.download !== "false"
      })
      .pipe(
        Effect.map((link): PresignedUrl => {
          const query = new URLSearchParams({
            path: link.key,
            expires: String(link.expires),
            download: String(link.download),
            signature: link.signature
          })
          return {
            url: `${base}/files/presigned?${query.toString()}`,
            expiresAt: isoOfMillis(link.expires * 1000),
            fileName
          }
        }),
        Effect.catchTag("InvalidFilePath", internalFailure)
      )
  return { presignedUrl }
})

/** An inbox item with no stored attachment has no file to sign: 400, as the twin answers. */
export const noFileAvailable = (what: string) => badRequest("file_not_available", `the ${what} has no stored file`)
