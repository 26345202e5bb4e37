import type { PromiseClient } from "@svc/sdk"
import { useId, useState } from "preact/hooks"
import { formatMajorMoney } from "../../format/money.ts"
import { formatDate } from "../../format/time.ts"
import { useWorkspace } from "../../session/context.ts"
import { ErrorNote, StatusBadge } from "../../ui/components.tsx"
import type { Reference, TagItem } from "./reference.ts"

export type TransactionItem = Awaited<ReturnType<PromiseClient["transactions"]["get"]>>
type Changes = NonNullable<Parameters<PromiseClient["transactions"]["update"]>[0]["payload"]>

/**
 * Stores an uploaded receipt as a document of the team (POST /documents), then attaches that stored file to the
 * transaction by its vault path, as the attachments route takes it (the team id first).
 */
const attachReceipt = async (client: PromiseClient, transactionId: string, file: File) => {
  const form = new FormData()
  form.append("title", file.name)
  form.append("file", file, file.name)
  const document = await client.documents.upload({ payload: form })
  await client.transactions.attach({
    params: { id: transactionId },
    payload: {
      path: document.path.replace(/^vault\//u, "").split("/"),
      name: document.name,
      size: document.size,
      type: document.contentType
    }
  })
  return client.transactions.get({ params: { id: transactionId } })
}

/** The tag of `name` (any case), created when the team has none yet. */
const tagNamed = async (client: PromiseClient, tags: ReadonlyArray<TagItem>, name: string) =>
  tags.find((tag) => tag.name.toLowerCase() === name.toLowerCase()) ?? client.tags.create({ payload: { name } })

/** One transaction of the list: read-only for a member, its category, tags, receipt and exclusion editable else. */
export const TransactionRow = ({
  transaction: t,
  reference,
  selected,
  onSelect,
  onChanged,
  onTagCreated
}: {
  readonly transaction: TransactionItem
  readonly reference: Reference
  readonly selected: boolean
  readonly onSelect: (selected: boolean) => void
  readonly onChanged: (transaction: TransactionItem) => void
  readonly onTagCreated: (tag: TagItem) => void
}) => {
  const { client, canManage } = useWorkspace()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [newTag, setNewTag] = useState("")
  const tagListId = useId()
  const run = (change: () => Promise<TransactionItem>) => {
    setBusy(true)
    setError(null)
    change().then(
      (updated) => {
        setBusy(false)
        onChanged(updated)
      },
      (failure: unknown) => {
        setBusy(false)
        setError(failure)
      }
    )
  }
  const update = (payload: Changes) => run(() => client.transactions.update({ params: { id: t.id }, payload }))
  const tags = t.tags ?? []
  const attachments = t.attachments ?? []
  const excluded = t.status === "excluded"
  const addTag = () => {
    const name = newTag.trim()
    if (name === "") return
    run(async () => {
      const tag = await tagNamed(client, reference.tags, name)
      if (!reference.tags.some((known) => known.id === tag.id)) onTagCreated(tag)
      setNewTag("")
      return client.transactions.update({
        params: { id: t.id },
        payload: { tagIds: [...new Set([...tags.map((known) => known.id), tag.id])] }
      })
    })
  }
  return (
    <tr aria-selected={selected} aria-busy={busy}>
      {canManage ? (
        <td data-label="Select">
          <input
            type="checkbox"
            aria-label={`Select ${t.name}`}
            checked={selected}
            onChange={(event) => onSelect(event.currentTarget.checked)}
          />
        </td>
      ) : null}
      <td data-label="Date">{formatDate(t.date)}</td>
      <th scope="row">
        {t.name}
        {t.counterpartyName === null || t.counterpartyName === t.name ? null : (
          <span class="muted"> {t.counterpartyName}</span>
        )}
        {t.account?.name == null ? null : <small class="muted block">{t.account.name}</small>}
        {error === null ? null : <ErrorNote error={error} />}
      </th>
      <td class={`num ${t.amount < 0 ? "debit" : "credit"}`} data-label="Amount">
        {formatMajorMoney(t.amount, t.currency)}
      </td>
      <td data-label="Category">
        <div class="cell">
          {canManage ? (
            <select
              aria-label={`Category of ${t.name}`}
              value={t.category?.id ?? ""}
              disabled={busy}
              onChange={(event) =>
                update({ categoryId: event.currentTarget.value === "" ? null : event.currentTarget.value })
              }
            >
              <option value="">Uncategorised</option>
              {reference.categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {category.name}
                </option>
              ))}
            </select>
          ) : (
            (t.category?.name ?? <span class="muted">Uncategorised</span>)
          )}
        </div>
      </td>
      <td data-label="Tags">
        <div class="cell">
          <ul class="tags" aria-label={`Tags of ${t.name}`}>
            {tags.map((tag) => (
              <li key={tag.id} class="tag">
                {tag.name ?? tag.id}
                {canManage ? (
                  <button
                    type="button"
                    class="link"
                    disabled={busy}
                    aria-label={`Remove tag ${tag.name ?? ""} from ${t.name}`}
                    onClick={() => update({ tagIds: tags.filter((kept) => kept.id !== tag.id).map((kept) => kept.id) })}
                  >
                    ×
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          {canManage ? (
            <form
              class="tag-add"
              onSubmit={(event) => {
                event.preventDefault()
                addTag()
              }}
            >
              <input
                type="text"
                aria-label={`Add tag to ${t.name}`}
                placeholder="Add tag"
                list={tagListId}
                maxLength={100}
                value={newTag}
                disabled={busy}
                onInput={(event) => setNewTag(event.currentTarget.value)}
              />
              <datalist id={tagListId}>
                {reference.tags.map((tag) => (
                  <option key={tag.id} value={tag.name} />
                ))}
              </datalist>
            </form>
          ) : null}
        </div>
      </td>
      <td data-label="Status">
        <StatusBadge status={t.status} />
      </td>
      <td data-label="Receipt">
        <div class="cell">
          {attachments.length === 0 ? (
            <span class="muted">None</span>
          ) : (
            <ul class="plain" aria-label={`Receipts of ${t.name}`}>
              {attachments.map((attachment) => (
                <li key={attachment.id}>{attachment.filename ?? attachment.path.at(-1)}</li>
              ))}
            </ul>
          )}
          {canManage ? (
            <label class="file-pick">
              <span class="visually-hidden">Attach receipt to {t.name}</span>
              <input
                type="file"
                accept="application/pdf,image/*"
                disabled={busy}
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0]
                  event.currentTarget.value = ""
                  if (file !== undefined) run(() => attachReceipt(client, t.id, file))
                }}
              />
            </label>
          ) : null}
        </div>
      </td>
      {canManage ? (
        <td data-label="Reports">
          <button
            type="button"
            disabled={busy}
            aria-label={`${excluded ? "Include" : "Exclude"} ${t.name}`}
            onClick={() => update({ status: excluded ? "posted" : "excluded" })}
          >
            {excluded ? "Include" : "Exclude"}
          </button>
        </td>
      ) : null}
    </tr>
  )
}
