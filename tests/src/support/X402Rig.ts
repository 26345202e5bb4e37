import { readFileSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import { x402Facilitator } from "@x402/core/facilitator"
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server"
import { toFacilitatorEvmSigner } from "@x402/evm"
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator"
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server"
import { paymentMiddleware } from "@x402/hono"
import { Context, Effect, Layer } from "effect"
import { Hono } from "hono"
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEther,
  publicActions
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { anvil as anvilChain } from "viem/chains"
import { ANVIL_KEYS, anvil } from "./Anvil.ts"

interface Artifact {
  readonly abi: Abi
  readonly bytecode: Hex
  readonly deployedBytecode: Hex
}

const artifact = (name: string) =>
  JSON.parse(readFileSync(new URL(`../x402/fixtures/${name}.json`, import.meta.url), "utf8")) as Artifact

const TOKEN = artifact("Eip3009Token")
const TRY_AGGREGATE = artifact("TryAggregate")

/** Where the facilitator looks for Multicall3 (the same address on every chain it knows). */
const MULTICALL3: Address = "0xcA11bde05977b3631167028862bE2a173976CA11"

/** The x402 network id of the local chain (CAIP-2). */
const X402_NETWORK = `eip155:${anvilChain.id}` as const

/** The token's EIP-712 domain, as USDC's; it travels in `accepts[].extra` so the payer can sign for it. */
export const TOKEN_DOMAIN = { name: "USD Coin", version: "2" } as const

/** The path of the paid resource on the rig's resource server, and what it answers once paid. */
const RESOURCE_PATH = "/paid/report"
export const RESOURCE_BODY = { report: "the paid report" } as const

/** The JSON in an x402 version 2 header (`PAYMENT-REQUIRED`, `PAYMENT-SIGNATURE`, `PAYMENT-RESPONSE`): standard base64. */
export const decodeX402Header = (value: string): unknown => JSON.parse(Buffer.from(value, "base64").toString("utf8"))

export const encodeX402Header = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64")

interface Rig {
  /** The paid resource (GET): 402 without a payment, 200 with `RESOURCE_BODY` once paid. */
  readonly resourceUrl: string
  /** The facilitator's base URL (`POST /verify`, `POST /settle`, `GET /supported`, x402's HTTP facilitator API). */
  readonly facilitatorUrl: string
  readonly rpcUrl: string
  readonly chainId: number
  readonly network: typeof X402_NETWORK
  readonly token: Address
  /** Who the resource is paid to: a fresh address holding nothing at the start. */
  readonly payTo: Address
  /** The resource's price, in the token's base units (6 decimals). */
  readonly priceMinor: bigint
  readonly balanceOf: (address: Address) => Effect.Effect<bigint>
  /** Mints `tokens` base units to `address` and sets its ETH balance to 10 ETH. */
  readonly fund: (address: Address, tokens: bigint) => Effect.Effect<void>
  /** Whether `authorizer` has used the EIP-3009 `nonce` on the token. */
  readonly authorizationUsed: (authorizer: Address, nonce: Hex) => Effect.Effect<boolean>
}

/** Serves a Hono app on a free loopback port for the scope; answers its base URL. */
const listen = (app: Hono) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ readonly server: ReturnType<typeof serve>; readonly url: string }>((resolve) => {
          const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) =>
            resolve({ server, url: `http://127.0.0.1:${info.port}` })
          )
        })
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve())
            if ("closeAllConnections" in server) server.closeAllConnections()
          })
      )
  ).pipe(Effect.map(({ url }) => url))

/** x402's HTTP facilitator API over an in-process facilitator; a thrown error is a 500 with its message. */
const facilitatorApp = (facilitator: x402Facilitator) => {
  const answer = async (run: () => Promise<unknown>) => {
    try {
      return Response.json(await run())
    } catch (error) {
      return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 })
    }
  }
  return new Hono()
    .get("/supported", (c) => c.json(facilitator.getSupported()))
    .post("/verify", async (c) => {
      const { paymentPayload, paymentRequirements } = await c.req.json()
      return answer(() => facilitator.verify(paymentPayload, paymentRequirements))
    })
    .post("/settle", async (c) => {
      const { paymentPayload, paymentRequirements } = await c.req.json()
      return answer(() => facilitator.settle(paymentPayload, paymentRequirements))
    })
}

/**
 * The x402 payee side built from the official packages, for the scope: anvil with `Eip3009Token` deployed (and
 * Multicall3's `tryAggregate` at its address), a facilitator from `@x402/evm`'s exact scheme settling with anvil's
 * second account, behind x402's HTTP facilitator API, and a Hono resource server protected by `@x402/hono`'s
 * `paymentMiddleware` charging `priceMinor` of the token for `GET RESOURCE_PATH`.
 *
 * The wire, as observed from `@x402/*` 2.27 (x402 version 2; `rig.test.ts` asserts it). Header names are
 * case-insensitive; every x402 header value is standard base64 (with padding) of UTF-8 JSON.
 * - Unpaid `GET` → `402`, body `{}` (`Content-Type: application/json`), `Cache-Control: no-store`, and the
 *   requirements in the header `PAYMENT-REQUIRED`, never in the body (x402 version 1 put them in the body):
 *   `{ x402Version: 2, error: "Payment required", resource: { url, description, mimeType },
 *      accepts: [{ scheme: "exact", network: "eip155:31337", amount: "10000", asset: "0x…token (EIP-55)",
 *                  payTo: "0x…", maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } }] }`
 *   (`amount` is a decimal string of the token's base units; no `maxAmountRequired`, which was version 1's).
 * - The paid retry repeats the request with the header `PAYMENT-SIGNATURE` (the only one this server reads a version
 *   2 payment from), the `PaymentPayload`:
 *   `{ x402Version: 2, resource: <the 402's resource>, accepted: <the accepts[] entry paid, verbatim>,
 *      payload: { authorization: { from, to, value, validAfter, validBefore, nonce }, signature } }`.
 *   `authorization` holds decimal strings and a 32-byte hex `nonce`; the official client sends `validAfter: "0"` and
 *   `validBefore` = now + `maxTimeoutSeconds`. `signature` is the payer's 65-byte EIP-712 signature of
 *   `TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,
 *   bytes32 nonce)` in the domain `{ name: extra.name, version: extra.version, chainId: 31337,
 *   verifyingContract: asset }`. The server looks up `accepted` among its own `accepts` field by field, so it must be
 *   echoed unchanged; the facilitator wants `to` = `payTo`, `value` = `amount`, `validBefore` at least 6 s ahead,
 *   `validAfter` not in the future, a nonce unused on the token and a payer holding `amount`.
 * - Paid → `200` with the resource, `Cache-Control: private`, and the header `PAYMENT-RESPONSE`:
 *   `{ success: true, payer: "0x…", transaction: "0x…tx hash", network: "eip155:31337" }`. The facilitator settles
 *   (and the transaction is mined) after the handler ran and before the response is sent.
 * - A refused payment → `402` again, body `{}`, no `PAYMENT-RESPONSE`, and a `PAYMENT-REQUIRED` as above whose
 *   `error` is the facilitator's reason: `invalid_exact_evm_nonce_already_used` (a replayed header),
 *   `invalid_exact_evm_payload_authorization_value_mismatch` (`value` is not `amount`),
 *   `invalid_exact_evm_insufficient_balance`, `invalid_exact_evm_signature` (not signed by `from`).
 * A payment signed by other code than `@x402/fetch` (the service's own payer) is wired in the same way: read
 * `PAYMENT-REQUIRED` off the 402, sign `accepts[0]` as above with the rig-funded key, and repeat the `GET` with the
 * `PAYMENT-SIGNATURE` header (`rig.test.ts` does it with viem alone). The official client also refuses assets outside
 * its default tables unless its spend controls allow them (`allowedAssets`).
 */
const make = (options: { readonly priceMinor?: bigint }) =>
  Effect.gen(function* () {
    const priceMinor = options.priceMinor ?? 10_000n
    const rpcUrl = yield* anvil()
    const transport = http(rpcUrl)
    const client = createPublicClient({ chain: anvilChain, transport, pollingInterval: 20 })
    const testClient = createTestClient({ chain: anvilChain, mode: "anvil", transport })
    const minter = createWalletClient({ account: privateKeyToAccount(ANVIL_KEYS[0]), chain: anvilChain, transport })
    const settler = privateKeyToAccount(ANVIL_KEYS[1])
    const payTo = privateKeyToAccount(generatePrivateKey()).address

    const token = yield* Effect.promise(async () => {
      await testClient.setCode({ address: MULTICALL3, bytecode: TRY_AGGREGATE.deployedBytecode })
      const hash = await minter.deployContract({ abi: TOKEN.abi, bytecode: TOKEN.bytecode })
      const { contractAddress } = await client.waitForTransactionReceipt({ hash })
      return getAddress(contractAddress!)
    })

    const settlerClient = createWalletClient({ account: settler, chain: anvilChain, transport, pollingInterval: 20 })
    // A viem wallet client with public actions is the signer x402 documents; viem's parameter types are only stricter.
    const signer = Object.assign(settlerClient.extend(publicActions), {
      address: settler.address
    }) as unknown as Parameters<typeof toFacilitatorEvmSigner>[0]
    const facilitator = new x402Facilitator().register(
      X402_NETWORK,
      new ExactEvmFacilitatorScheme(toFacilitatorEvmSigner(signer))
    )
    const facilitatorUrl = yield* listen(facilitatorApp(facilitator))

    const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitatorUrl })).register(
      X402_NETWORK,
      new ExactEvmServerScheme()
    )
    const app = new Hono()
      .use(
        paymentMiddleware(
          {
            [`GET ${RESOURCE_PATH}`]: {
              accepts: {
                scheme: "exact",
                network: X402_NETWORK,
                payTo,
                price: { amount: priceMinor.toString(), asset: token, extra: { ...TOKEN_DOMAIN } },
                maxTimeoutSeconds: 60
              },
              description: "A report sold for the token over x402",
              mimeType: "application/json"
            }
          },
          resourceServer
        )
      )
      .get(RESOURCE_PATH, (c) => c.json(RESOURCE_BODY))
    const resourceBase = yield* listen(app)

    const readToken = <A>(functionName: "balanceOf" | "authorizationState", args: ReadonlyArray<unknown>) =>
      Effect.promise(() => client.readContract({ address: token, abi: TOKEN.abi, functionName, args }) as Promise<A>)

    return {
      resourceUrl: `${resourceBase}${RESOURCE_PATH}`,
      facilitatorUrl,
      rpcUrl,
      chainId: anvilChain.id,
      network: X402_NETWORK,
      token,
      payTo,
      priceMinor,
      balanceOf: (address) => readToken<bigint>("balanceOf", [address]),
      authorizationUsed: (authorizer, nonce) => readToken<boolean>("authorizationState", [authorizer, nonce]),
      fund: (address, tokens) =>
        Effect.promise(async () => {
          await testClient.setBalance({ address, value: parseEther("10") })
          const hash = await minter.writeContract({
            address: token,
            abi: TOKEN.abi,
            functionName: "mint",
            args: [address, tokens]
          })
          await client.waitForTransactionReceipt({ hash })
        })
    } satisfies Rig
  })

/** A local x402 payee (see `make` for what it runs and the wire it speaks), one per test file. */
export class X402Rig extends Context.Service<X402Rig, Rig>()("tests/support/X402Rig") {
  static readonly layer = (options: { readonly priceMinor?: bigint } = {}) => Layer.effect(X402Rig, make(options))
}
