import { SearchRepoPg } from "./SearchRepoPg.ts"

export * from "./SearchRepoPg.ts"

/** The search context's ports on Postgres. */
export const SearchPortsPg = SearchRepoPg
