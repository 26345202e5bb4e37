import { afterAll, assert, describe, it } from "@effect/vitest"
import { undescribedProperties } from "@svc/adapters-http/api"
import { inProcessApp } from "../support/InProcessApp.ts"

const app = inProcessApp()
afterAll(() => app.dispose())

type Json = { readonly [key: string]: unknown }

const served = async () => (await app.call("GET", "/openapi.json")).body as Json

/** Every `examples` array under a node of the document. */
const examplesIn = (node: unknown): ReadonlyArray<unknown> => {
  if (Array.isArray(node)) return node.flatMap(examplesIn)
  if (typeof node !== "object" || node === null) return []
  return Object.entries(node).flatMap(([key, value]) =>
    key === "examples" && Array.isArray(value) ? [...value, ...examplesIn(value)] : examplesIn(value)
  )
}

describe("the /v1 reference describes every property", () => {
  it("the served document leaves no /v1 property undescribed, and shows money, ids and times by example", async () => {
    const document = await served()
    assert.deepStrictEqual(undescribedProperties(document), [])
    const paths = document.paths as Record<string, Record<string, Json>>
    type Property = { readonly description?: string; readonly examples?: ReadonlyArray<unknown> }
    const created = paths["/v1/spend-requests"]?.post as {
      readonly responses: Record<string, { readonly content: Record<string, { readonly schema: Json }> }>
    }
    const view = created.responses["201"]?.content["application/json"]?.schema as {
      readonly properties: Record<string, Property>
    }
    assert.include(view.properties.amount?.description ?? "", "minor units")
    assert.deepStrictEqual(view.properties.amount?.examples, [1999])
    assert.deepStrictEqual(view.properties.currency?.examples, ["USD"])
    assert.match(String(view.properties.id?.examples?.[0]), /^[0-9a-f]{8}-[0-9a-f]{4}-/u)
    assert.match(String(view.properties.createdAt?.examples?.[0]), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/u)
    const v1 = Object.entries(paths).filter(([path]) => path.startsWith("/v1/"))
    const examples = examplesIn(v1)
    assert.isAbove(examples.length, 50)
    assert.deepStrictEqual(
      examples.filter(
        (example) => example === "" || example === Number.MIN_SAFE_INTEGER || example === Number.MAX_SAFE_INTEGER
      ),
      []
    )
  })

  it("the lint names each undescribed property of a /v1 operation, following $ref, items, maps and unions", () => {
    const problems = undescribedProperties({
      paths: {
        "/v1/things/{id}": {
          get: {
            parameters: [
              { name: "id", in: "path", schema: { type: "string" } },
              { name: "limit", in: "query", schema: { type: "string", description: "Page size." } },
              { name: "cursor", in: "query", description: "Where to go on.", schema: { type: "string" } }
            ],
            responses: {
              "200": {
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: {
                        amount: { type: "integer", description: "Minor units." },
                        owner: { $ref: "#/components/schemas/Owner" },
                        plain: { $ref: "#/components/schemas/Plain" },
                        note: { anyOf: [{ type: "string" }, { type: "null" }] },
                        card: { anyOf: [{ $ref: "#/components/schemas/Owner" }, { type: "null" }] },
                        lines: {
                          type: "array",
                          description: "The lines.",
                          items: { type: "object", properties: { total: { type: "integer" } } }
                        },
                        tags: {
                          type: "object",
                          description: "Labels.",
                          additionalProperties: { type: "object", properties: { color: { type: "string" } } }
                        }
                      }
                    }
                  }
                }
              },
              "404": {
                content: {
                  "application/json": { schema: { type: "object", properties: { message: { type: "string" } } } }
                }
              }
            }
          },
          post: {
            requestBody: {
              content: {
                "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } }
              }
            },
            responses: { "204": { description: "No content" } }
          }
        },
        "/internal": {
          get: {
            responses: {
              "200": {
                content: {
                  "application/json": { schema: { type: "object", properties: { secret: { type: "string" } } } }
                }
              }
            }
          }
        }
      },
      components: {
        schemas: {
          Owner: {
            type: "object",
            description: "Who owns it.",
            properties: { id: { type: "string" }, self: { $ref: "#/components/schemas/Owner" } }
          },
          Plain: { type: "object", properties: { name: { type: "string", description: "A name." } } }
        }
      }
    })
    assert.deepStrictEqual(problems, [
      "GET /v1/things/{id} path parameter id",
      "GET /v1/things/{id} response 200: owner.id",
      "GET /v1/things/{id} response 200: plain",
      "GET /v1/things/{id} response 200: note",
      "GET /v1/things/{id} response 200: card.id",
      "GET /v1/things/{id} response 200: lines[].total",
      "GET /v1/things/{id} response 200: tags{}.color",
      "POST /v1/things/{id} request body: name"
    ])
  })
})
