import { type PromiseClient, paginate } from "@svc/sdk"

/** Every item of an async iterable (such as every page of a cursor list), in order. */
export const collect = async <A>(items: AsyncIterable<A>): Promise<ReadonlyArray<A>> => {
  const all: Array<A> = []
  for await (const item of items) all.push(item)
  return all
}

/** What the transaction list names and offers to choose: the team's categories (by name), tags and bank accounts. */
export const loadReference = async (client: PromiseClient) => {
  const [categories, tags, accounts] = await Promise.all([
    collect(paginate(client.categories.list, { query: { limit: 100 } })),
    client.tags.list().then((body) => body.data),
    collect(paginate(client.bankAccounts.list, { query: { limit: 100 } }))
  ])
  return {
    categories: [...categories].sort((a, b) => a.name.localeCompare(b.name)),
    tags,
    accounts
  }
}

export type Reference = Awaited<ReturnType<typeof loadReference>>
export type TagItem = Reference["tags"][number]
