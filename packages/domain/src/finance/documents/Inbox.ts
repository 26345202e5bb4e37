import { Context, DateTime, Effect, Layer, Option, Result, Schema, type Stream } from "effect"
import { FileStorage, MaxFileBytes, parseVaultPath, type StorageKey, storageKey } from "../../files/index.ts"
import { newIdText, nowIso } from "../../shared/index.ts"
import type { PageRequest, TeamId } from "../../shared/model.ts"
import { TransactionId, TransactionsRepo } from "../transactions/index.ts"
import type { InboxAttachment, InboxItem, InboxStatus } from "./InboxItems.ts"
import { InboxItemsRepo } from "./InboxItemsRepo.ts"
import { type InboxSuggestion, SUGGESTION_WINDOW_DAYS, suggestMatches } from "./InboxSuggestions.ts"

/** The team has no inbox item with that id. */
export class InboxItemNotFound extends Schema.TaggedError<InboxItemNotFound>()("InboxItemNotFound", {
  id: Schema.String
}) {}

/** A match names a transaction the team does not have. */
export class InboxTransactionNotFound extends Schema.TaggedError<InboxTransactionNotFound>()(
  "InboxTransactionNotFound",
  { transactionId: Schema.String }
) {}

/** An attachment's content could not be read (not base64); the attachment is skipped, the e-mail kept. */
export class AttachmentUnreadable extends Schema.TaggedError<AttachmentUnreadable>()("AttachmentUnreadable", {}) {}

/**
 * An attachment as received: its name (a `FileName`) and content type (a `ContentType`), its declared size, and its
 * content read as it is stored.
 */
export interface ReceivedAttachment {
  readonly filename: string
  readonly contentType: string
  readonly size: number
  readonly content: Stream.Stream<Uint8Array, AttachmentUnreadable>
}

/** An e-mail received on a team's inbox address. */
export interface ReceivedEmail {
  readonly messageId: string
  readonly sender: string
  readonly recipient: string
  readonly subject: string
  readonly textBody: string
  readonly htmlBody: string
  readonly attachments: ReadonlyArray<ReceivedAttachment>
}

/** A change to an inbox item: a match (null unmatches) and a status; absent fields are unchanged. */
export interface InboxPatch {
  readonly transactionId?: string | null | undefined
  readonly status?: InboxStatus | undefined
  /** A new display name; null clears it. */
  readonly displayName?: string | null | undefined
}

const SUGGESTION_CANDIDATES = 200

/** The status a patch leaves: the one given, else `done` on a match, `pending` on an unmatch, else unchanged. */
export const statusAfter = (current: InboxStatus, patch: InboxPatch): InboxStatus =>
  patch.status ?? (patch.transactionId === undefined ? current : patch.transactionId === null ? "pending" : "done")

/**
 * A team's inbox: e-mails with their attachments stored at `vault/{teamId}/inbox/{itemId}/{position}` (the name is
 * metadata), matched to transactions, with suggested matches.
 */
export class Inbox extends Context.Service<Inbox>()("@svc/domain/Inbox", {
  make: Effect.gen(function* () {
    const repo = yield* InboxItemsRepo
    const storage = yield* FileStorage
    const transactions = yield* TransactionsRepo
    const maxBytes = yield* MaxFileBytes

    const keyOf = (teamId: TeamId, itemId: string, position: number): StorageKey => {
      const key = storageKey(teamId, ["inbox", itemId, String(position)])
      // An id and a number are always valid segments.
      if (Result.isFailure(key)) throw key.failure
      return key.success
    }
    const removeFiles = (attachments: ReadonlyArray<InboxAttachment>) =>
      Effect.forEach(
        attachments.filter((a) => a.path !== null),
        (a) => {
          const parsed = parseVaultPath(a.path ?? "")
          return Result.isSuccess(parsed) ? storage.remove(parsed.success.key) : Effect.void
        },
        { discard: true }
      )

    /**
     * Stores the e-mail's attachments one by one (an attachment over the file limit, or unreadable, is kept as
     * skipped with the reason), then the item; a message the team already has stores nothing (the files go again).
     */
    const receive = Effect.fn("Inbox.receive")(function* (teamId: TeamId, email: ReceivedEmail) {
      const id = yield* newIdText
      const stored: Array<InboxAttachment> = []
      const storeAll = Effect.forEach(
        email.attachments,
        (a, index) =>
          Effect.gen(function* () {
            const meta = { filename: a.filename, contentType: a.contentType, size: a.size }
            if (a.size > maxBytes) {
              stored.push({ ...meta, path: null, skipped: `over the file limit of ${maxBytes} bytes` })
              return
            }
            const key = keyOf(teamId, id, index + 1)
            const written = storage.write(key, a.content, { name: a.filename, contentType: a.contentType, maxBytes })
            const outcome = yield* written.pipe(
              Effect.map((file): InboxAttachment => ({ ...meta, size: file.size, path: key, skipped: null })),
              Effect.catchTags({
                FileTooLarge: () =>
                  Effect.succeed<InboxAttachment>({
                    ...meta,
                    path: null,
                    skipped: `over the file limit of ${maxBytes} bytes`
                  }),
                AttachmentUnreadable: () =>
                  Effect.succeed<InboxAttachment>({ ...meta, path: null, skipped: "the content is not valid base64" })
              })
            )
            stored.push(outcome)
          }),
        { discard: true }
      )
      yield* storeAll.pipe(Effect.onError(() => removeFiles(stored).pipe(Effect.ignore)))
      const now = yield* nowIso
      const item: InboxItem = {
        id,
        teamId,
        messageId: email.messageId,
        sender: email.sender,
        recipient: email.recipient,
        subject: email.subject,
        displayName: null,
        textBody: email.textBody,
        htmlBody: email.htmlBody,
        attachments: stored,
        status: "pending",
        transactionId: null,
        createdAt: now,
        updatedAt: now
      }
      const inserted = yield* repo.insert(item).pipe(Effect.onError(() => removeFiles(stored).pipe(Effect.ignore)))
      if (!inserted) yield* removeFiles(stored)
    })

    const get = Effect.fn("Inbox.get")(function* (teamId: TeamId, id: string) {
      const found = yield* repo.find(teamId, id)
      if (Option.isNone(found)) return yield* new InboxItemNotFound({ id })
      return found.value
    })

    /** The team's transactions dated around the item's arrival, ranked by `suggestMatches`. */
    const suggestions = Effect.fn("Inbox.suggestions")(function* (item: InboxItem) {
      const received = DateTime.makeUnsafe(item.createdAt)
      const around = (days: number) => DateTime.formatIsoDateUtc(DateTime.add(received, { days }))
      const candidates = yield* transactions.list({
        teamId: item.teamId,
        filter: { from: around(-SUGGESTION_WINDOW_DAYS), to: around(SUGGESTION_WINDOW_DAYS) },
        sort: { by: "date", direction: "desc" },
        after: Option.none(),
        limit: SUGGESTION_CANDIDATES
      })
      return suggestMatches(
        item,
        candidates.map((c) => c.transaction)
      ) as ReadonlyArray<InboxSuggestion>
    })

    const update = Effect.fn("Inbox.update")(function* (teamId: TeamId, id: string, patch: InboxPatch) {
      const current = yield* get(teamId, id)
      const given = patch.transactionId
      if (typeof given === "string") {
        const known = Schema.is(TransactionId)(given)
          ? yield* transactions.find(teamId, TransactionId.make(given))
          : Option.none()
        if (Option.isNone(known)) return yield* new InboxTransactionNotFound({ transactionId: given })
      }
      const next: InboxItem = {
        ...current,
        transactionId: given === undefined ? current.transactionId : given,
        status: statusAfter(current.status, patch),
        displayName: patch.displayName === undefined ? current.displayName : patch.displayName,
        updatedAt: yield* nowIso
      }
      if (!(yield* repo.update(next))) return yield* new InboxItemNotFound({ id })
      return next
    })

    /** Deletes the item, then its stored attachments. */
    const remove = Effect.fn("Inbox.remove")(function* (teamId: TeamId, id: string) {
      const current = yield* get(teamId, id)
      if (!(yield* repo.delete(teamId, id))) return yield* new InboxItemNotFound({ id })
      yield* removeFiles(current.attachments)
      return current
    })

    return {
      receive,
      get,
      suggestions,
      list: Effect.fn("Inbox.list")((teamId: TeamId, status: InboxStatus | null, page: PageRequest) =>
        repo.list(teamId, status, page)
      ),
      update,
      remove
    }
  })
}) {
  static readonly layer = Layer.effect(Inbox, Inbox.make)
}
