import fc from "fast-check"

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema documents are walked structurally
type JsonSchema = any

/** An operation of an OpenAPI document: method, path template, parameters, body schema and content types. */
export interface Operation {
  readonly method: string
  readonly path: string
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly in: string; readonly schema: JsonSchema }>
  readonly contentTypes: ReadonlyArray<string>
  readonly bodySchema: JsonSchema | undefined
}

/** Every operation of the document. */
export const operationsOf = (document: JsonSchema): Array<Operation> =>
  Object.entries(document.paths as Record<string, Record<string, JsonSchema>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const content = op.requestBody?.content ?? {}
      const contentTypes = Object.keys(content)
      return {
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        contentTypes,
        bodySchema: contentTypes.length === 0 ? undefined : content[contentTypes[0] as string].schema
      }
    })
  )

const safeInteger = (schema: JsonSchema) =>
  fc.integer({
    min: Math.max(Number.MIN_SAFE_INTEGER, schema.minimum ?? -1_000_000),
    max: Math.min(Number.MAX_SAFE_INTEGER, schema.maximum ?? 1_000_000_000)
  })

/** Words the fixtures use, so that a pattern-matching string is sometimes one the service accepts (a currency it has). */
const VOCABULARY = ["USD", "software", "OpenAI", "https://example.com/hook", "*", "spend.read", "spend.write"]

/** The document's component schemas, and ids of resources that exist, for `format: uuid` strings to hit now and then. */
export interface Known {
  readonly schemas: Record<string, JsonSchema>
  readonly ids: ReadonlyArray<string>
}

const stringFor = (schema: JsonSchema, known: Known): fc.Arbitrary<string> => {
  if (schema.format === "uuid")
    return known.ids.length === 0 ? fc.uuid() : fc.oneof(fc.uuid(), fc.constantFrom(...known.ids))
  if (typeof schema.pattern === "string") {
    try {
      const pattern = new RegExp(schema.pattern, "u")
      const words = VOCABULARY.filter((word) => pattern.test(word))
      const matching = fc.stringMatching(pattern)
      return words.length === 0 ? matching : fc.oneof(matching, fc.constantFrom(...words))
    } catch {
      // a pattern that JavaScript cannot read: plain strings below
    }
  }
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200) })
}

/** Values that (mostly) satisfy `schema`: the valid side of the fuzz, so requests get past decoding. */
export const valueFor = (schema: JsonSchema, known: Known, depth = 0): fc.Arbitrary<unknown> => {
  if (depth > 8 || schema === undefined || schema === true) return fc.jsonValue({ maxDepth: 2 })
  if (typeof schema.$ref === "string") return valueFor(known.schemas[schema.$ref.split("/").pop()], known, depth + 1)
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (Array.isArray(alternatives))
    return fc.oneof(...alternatives.map((s: JsonSchema) => valueFor(s, known, depth + 1)))
  if (Array.isArray(schema.allOf)) return valueFor(Object.assign({}, ...schema.allOf), known, depth + 1)
  const types: Array<string> = Array.isArray(schema.type) ? schema.type : [schema.type]
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case "string":
          return stringFor(schema, known)
        case "integer":
          return safeInteger(schema)
        case "number":
          return fc.double({ noNaN: true, noDefaultInfinity: true })
        case "boolean":
          return fc.boolean()
        case "null":
          return fc.constant(null)
        case "array":
          return fc.array(valueFor(schema.items, known, depth + 1), {
            maxLength: Math.min(schema.maxItems ?? 3, 3)
          })
        case "object": {
          const properties: Record<string, JsonSchema> = schema.properties ?? {}
          const model = Object.fromEntries(
            Object.entries(properties).map(([k, s]) => [k, valueFor(s, known, depth + 1)])
          )
          const required = (schema.required ?? []).filter((k: string) => k in properties)
          return Object.keys(model).length === 0
            ? fc.dictionary(
                schema.propertyNames === undefined
                  ? fc.string({ maxLength: 10 })
                  : (valueFor(schema.propertyNames, known, depth + 1) as fc.Arbitrary<string>),
                typeof schema.additionalProperties === "object"
                  ? valueFor(schema.additionalProperties, known, depth + 1)
                  : fc.string({ maxLength: 20 }),
                { maxKeys: 3 }
              )
            : fc.record(model, { requiredKeys: required })
        }
        default:
          return fc.jsonValue({ maxDepth: 2 })
      }
    })
  )
}

const deep = (depth: number, open: string, close: string, leaf: string) =>
  `${open.repeat(depth)}${leaf}${close.repeat(depth)}`

/** Leaf values that break assumptions: NUL, lone surrogates, huge, negative and fractional numbers, long text. */
const nastyLeaf: fc.Arbitrary<unknown> = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "x".repeat(100_000),
  " ",
  "' OR 1=1 --",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  1e308,
  -1,
  0,
  -0,
  1.5,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER + 2,
  [],
  {},
  null,
  true
)

/** Whole bodies no schema allows: deep nesting (10 000 levels), duplicate keys, huge numbers, broken JSON. */
const nastyRawBody: fc.Arbitrary<string | Uint8Array<ArrayBuffer>> = fc.constantFrom<string | Uint8Array<ArrayBuffer>>(
  deep(10_000, "[", "]", "1"),
  deep(10_000, '{"a":', "}", "1"),
  deep(65, "[", "]", "1"),
  '{"amount":1,"amount":-5,"amount":1e400}',
  '{"amount":1e400,"currency":"USD"}',
  '{"amount":123456789012345678901234567890}',
  '{"__proto__":{"admin":true},"constructor":{"prototype":{}}}',
  "",
  "null",
  "[]",
  '"text"',
  "{",
  '{"a":"\\u0000","\\ud800":1}',
  `{"name":"${"x".repeat(2 * 1024 * 1024)}"}`,
  new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])
)

/** Counts the leaves of a JSON value, and replaces the n-th one. */
const leaves = (value: unknown): number =>
  value !== null && typeof value === "object" ? Object.values(value).reduce<number>((sum, v) => sum + leaves(v), 0) : 1

const replaceLeaf = (value: unknown, index: number, leaf: unknown): unknown => {
  let n = index % Math.max(1, leaves(value))
  const walk = (v: unknown): unknown => {
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v).map(([k, child]) => [k, walk(child)] as const)
      return Array.isArray(v) ? entries.map(([, c]) => c) : Object.fromEntries(entries)
    }
    return n-- === 0 ? leaf : v
  }
  return walk(value)
}

/** Bodies for an operation: valid by its schema, valid with one nasty leaf, arbitrary JSON, or a nasty raw body. */
export const bodyFor = (schema: JsonSchema, known: Known): fc.Arbitrary<string | Uint8Array<ArrayBuffer>> => {
  const valid = valueFor(schema, known)
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((v) => JSON.stringify(v) ?? "null") },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.nat(), nastyLeaf)
        .map(([v, i, leaf]) => JSON.stringify(replaceLeaf(v, i, leaf)) ?? "null")
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null") },
    { weight: 2, arbitrary: nastyRawBody }
  )
}

/** Path and query values: plausible ones, and ones with NUL, invalid UTF-8, traversal, or sheer length. */
export const nastyParam: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map(encodeURIComponent),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom(
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%FF%FE",
    "..%2F..%2Fetc%2Fpasswd",
    "-1",
    "1.5",
    "1e400",
    "99999999999999999999999",
    "x".repeat(5_000),
    "%25",
    "00000000-0000-0000-0000-000000000000"
  )
)

/** Cursors a client could send that the server never signed. */
export const forgedCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({ createdAt: fc.string({ maxLength: 30 }), id: fc.string({ maxLength: 40 }) })
    .map((c) => Buffer.from(JSON.stringify(c)).toString("base64url")),
  fc.base64String({ maxLength: 200 }).map(encodeURIComponent),
  fc.constantFrom("a.b", "e30", "%00", "x".repeat(600), "eyJjcmVhdGVkQXQiOiIxOTcwIn0.AAAA")
)
