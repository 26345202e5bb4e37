import { SEARCH_LIMIT_MAX, SEARCH_TYPES, SearchResultView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { CommonErrors, Forbidden, PlatformAuth, RequiredScope } from "../../shared/index.ts"

const TYPE = SEARCH_TYPES.join("|")

const Term = Schema.String.check(Schema.isBetweenLength(1, 200, { message: "expected 1 to 200 characters" }))

/**
 * The query of GET /search: the text (`q`, or the twin's name `searchTerm`), the types as a comma-separated list, how
 * many results.
 */
export const SearchQueryParams = {
  q: Schema.optionalKey(Term),
  searchTerm: Schema.optionalKey(Term),
  types: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(new RegExp(`^(?:${TYPE})(?:,(?:${TYPE}))*$`, "u"), {
        message: `expected a comma-separated list of ${SEARCH_TYPES.join(", ")}`
      })
    )
  ),
  limit: Schema.optionalKey(
    Schema.NumberFromString.check(
      Schema.isInt({ message: `expected an integer between 1 and ${SEARCH_LIMIT_MAX}` }),
      Schema.isBetween(
        { minimum: 1, maximum: SEARCH_LIMIT_MAX },
        { message: `expected an integer between 1 and ${SEARCH_LIMIT_MAX}` }
      )
    )
  )
}

/** The ranked results, best first. */
export const SearchResponse = Schema.Struct({ data: Schema.Array(SearchResultView) })

/**
 * One search box over the team's transactions, customers, invoices, documents and inbox: session, OAuth or generic API
 * key (search.read).
 */
export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("search", "/search", {
      query: SearchQueryParams,
      success: SearchResponse,
      error: [...CommonErrors, Forbidden]
    })
      .annotate(RequiredScope, "search.read")
      .annotate(OpenApi.Summary, "Search the team's records")
      .annotate(
        OpenApi.Description,
        "The text is `q` or, as the twin names it, `searchTerm` (one of them is required; `q` wins when both are " +
          "sent). Every word of it (letters and digits; punctuation separates words) must start a word of a result. Results " +
          "are ranked best first (`rank`, comparable within one answer only): a match in the title (a transaction's " +
          "or customer's name; an invoice's number and customer name; a document's title; an e-mail's subject) above " +
          "one in the rest (description, counterparty; e-mail, contact, website, note; line item names, note; file " +
          "name, content type; sender, text body, attachment names), whole words above prefixes; ties by latest " +
          "date, then type and id. `types` (default all) and `limit` " +
          `(1 to ${SEARCH_LIMIT_MAX}, default 10) narrow it. Every field is present: \`subtitle\`, \`amount\` (major ` +
          "units of `currency`) and `date` (YYYY-MM-DD) are null where a type has none."
      )
  )
  .middleware(PlatformAuth) {}
