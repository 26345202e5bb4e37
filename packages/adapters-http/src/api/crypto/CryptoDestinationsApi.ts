import { CryptoAsset, CryptoDestinationView, CryptoNetwork, Mode } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  DashboardAuth,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  RequiredScope,
  UuidParam
} from "../shared/index.ts"

/** The body of POST /treasury/crypto/destinations. */
export const CreateCryptoDestinationBody = Schema.Struct({
  name: Schema.String.check(Schema.isBetweenLength(1, 200, { message: "expected 1 to 200 characters" })),
  network: CryptoNetwork,
  asset: CryptoAsset,
  address: Schema.String.check(Schema.isBetweenLength(1, 100, { message: "expected 1 to 100 characters" })).annotate({
    description:
      "EVM networks: `0x` and 40 hex digits in their EIP-55 checksummed case; Solana: a base58 32-byte public key"
  }),
  mode: Schema.optionalKey(Mode.annotate({ description: "`live` (default) or `test`" }))
})

/** An allow-listed destination as answered. */
export const CryptoDestinationResponse = CryptoDestinationView

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** The team's allow-list of crypto payout destinations, for sessions and OAuth tokens (by scope). */
export class CryptoDestinationsApi extends HttpApiGroup.make("cryptoDestinations")
  .add(
    HttpApiEndpoint.post("create", "/treasury/crypto/destinations", {
      payload: CreateCryptoDestinationBody,
      success: CryptoDestinationResponse.pipe(HttpApiSchema.status(201)),
      error: errors
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Allow-list a crypto destination")
      .annotate(
        OpenApi.Description,
        "Adds an address payouts may go to, for one asset on one network, in one mode (`live` unless given). Owners and " +
          "admins only (403 otherwise). The address is validated for its network: EIP-55 checksum on ethereum, base, " +
          "polygon and arbitrum (an all-lower or all-upper address is refused unless that is its checksummed form); a " +
          "base58 32-byte public key on solana. Recorded in the audit log (`crypto_destination.created`). Never edited: " +
          "remove it and add another."
      ),
    HttpApiEndpoint.get("list", "/treasury/crypto/destinations", {
      query: { ...ListQuery, mode: Schema.optionalKey(Mode) },
      success: ListOf(CryptoDestinationResponse),
      error: errors
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "List crypto destinations")
      .annotate(
        OpenApi.Description,
        "The team's allow-listed destinations of `?mode=` (`live` unless given), newest first; removed ones are not listed."
      ),
    HttpApiEndpoint.get("get", "/treasury/crypto/destinations/:id", {
      params: id,
      success: CryptoDestinationResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.read")
      .annotate(OpenApi.Summary, "Get a crypto destination")
      .annotate(OpenApi.Description, "One allow-listed destination of the team; 404 once removed."),
    HttpApiEndpoint.delete("remove", "/treasury/crypto/destinations/:id", {
      params: id,
      success: CryptoDestinationResponse,
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "spend.write")
      .annotate(OpenApi.Summary, "Remove a crypto destination")
      .annotate(
        OpenApi.Description,
        "Takes the destination off the allow-list for good (owners and admins) and answers it with `removedAt`; new " +
          "quotes to it get 404. Recorded in the audit log (`crypto_destination.removed`)."
      )
  )
  .middleware(DashboardAuth) {}
