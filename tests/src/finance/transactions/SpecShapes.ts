/** A JSON Schema of the subset the served OpenAPI document uses. */
interface JsonSchema {
  readonly $ref?: string
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly properties?: Record<string, JsonSchema>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: boolean | JsonSchema
  readonly items?: JsonSchema
  readonly minItems?: number
  readonly maxItems?: number
}

/** An OpenAPI document as served: its operations' JSON response schemas and its components. */
export interface OpenApiDocument {
  readonly paths: Record<
    string,
    Record<
      string,
      { readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: JsonSchema }> }> }
    >
  >
  readonly components: { readonly schemas: Record<string, JsonSchema> }
}

const typeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value

/** Where `value` breaks `schema` (empty when it conforms), as `path: problem` lines. */
const violations = (doc: OpenApiDocument, schema: JsonSchema, value: unknown, path: string): Array<string> => {
  if (schema.$ref !== undefined) {
    const target = doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]
    if (target === undefined) return [`${path}: unresolved ${schema.$ref}`]
    return violations(doc, target, value, path)
  }
  if (schema.anyOf !== undefined) {
    return schema.anyOf.some((option) => violations(doc, option, value, path).length === 0)
      ? []
      : [`${path}: matches none of ${JSON.stringify(schema.anyOf.map((o) => o.type ?? o.$ref))}`]
  }
  if (schema.enum !== undefined && !schema.enum.includes(value))
    return [`${path}: ${JSON.stringify(value)} not in enum`]
  const actual = typeOf(value)
  if (schema.type !== undefined) {
    const ok =
      schema.type === actual || (schema.type === "integer" && actual === "number" && Number.isInteger(value as number))
    if (!ok) return [`${path}: expected ${schema.type}, got ${actual}`]
  }
  if (actual === "object" && (schema.properties !== undefined || schema.required !== undefined)) {
    const record = value as Record<string, unknown>
    const out: Array<string> = []
    for (const key of schema.required ?? []) if (!(key in record)) out.push(`${path}.${key}: missing`)
    for (const [key, field] of Object.entries(record)) {
      const property = schema.properties?.[key]
      if (property !== undefined) out.push(...violations(doc, property, field, `${path}.${key}`))
      else if (schema.additionalProperties === false) out.push(`${path}.${key}: not in the schema`)
    }
    return out
  }
  if (actual === "array" && schema.items !== undefined) {
    const items = value as ReadonlyArray<unknown>
    return items.flatMap((item, i) => violations(doc, schema.items!, item, `${path}[${i}]`))
  }
  return []
}

/** The problems of a live body against the served document's schema for `method path` answering `status`. */
export const bodyViolations = (
  doc: OpenApiDocument,
  method: string,
  path: string,
  status: number,
  body: unknown
): ReadonlyArray<string> => {
  const operation = doc.paths[path]?.[method.toLowerCase()]
  if (operation === undefined) return [`no operation ${method} ${path}`]
  const schema = operation.responses[String(status)]?.content?.["application/json"]?.schema
  if (schema === undefined) return [`no ${status} JSON response for ${method} ${path}`]
  return violations(doc, schema, body, "body")
}

type Kind = "string" | "number" | "boolean" | "object" | "array"
type Field = readonly [name: string, kind: Kind, nullable: boolean]

const TRANSACTION: ReadonlyArray<Field> = [
  ["id", "string", false],
  ["name", "string", false],
  ["amount", "number", false],
  ["taxAmount", "number", true],
  ["taxRate", "number", true],
  ["taxType", "string", true],
  ["currency", "string", false],
  ["counterpartyName", "string", true],
  ["date", "string", false],
  ["category", "object", true],
  ["status", "string", false],
  ["internal", "boolean", true],
  ["recurring", "boolean", true],
  ["manual", "boolean", true],
  ["frequency", "string", true],
  ["isFulfilled", "boolean", false],
  ["note", "string", true],
  ["account", "object", true],
  ["tags", "array", true],
  ["attachments", "array", true]
]
const CATEGORY: ReadonlyArray<Field> = [
  ["id", "string", false],
  ["name", "string", false],
  ["color", "string", false],
  ["taxRate", "number", true],
  ["taxType", "string", true],
  ["slug", "string", false]
]
const ACCOUNT: ReadonlyArray<Field> = [
  ["id", "string", false],
  ["name", "string", true],
  ["currency", "string", true],
  ["connection", "object", true]
]
const CONNECTION: ReadonlyArray<Field> = [
  ["id", "string", false],
  ["name", "string", false],
  ["logoUrl", "string", true]
]
const TAG: ReadonlyArray<Field> = [
  ["id", "string", false],
  ["name", "string", true]
]
/** SPEC.md's transaction attachment item. */
export const ATTACHMENT: ReadonlyArray<Field> = [
  ["id", "string", false],
  ["path", "array", false],
  ["size", "number", false],
  ["type", "string", false],
  ["filename", "string", true]
]

/** Where an object breaks one of SPEC.md's field tables (every field required, nullable only where marked). */
export const fieldViolations = (value: unknown, fields: ReadonlyArray<Field>, path: string): Array<string> => {
  if (typeOf(value) !== "object") return [`${path}: expected an object`]
  const record = value as Record<string, unknown>
  return fields.flatMap(([name, kind, nullable]) => {
    if (!(name in record)) return [`${path}.${name}: missing`]
    const actual = typeOf(record[name])
    if (actual === kind || (nullable && actual === "null")) return []
    return [`${path}.${name}: expected ${kind}${nullable ? " or null" : ""}, got ${actual}`]
  })
}

/** Where a transaction body breaks SPEC.md's Transaction shape, its nested objects included. */
export const specTransactionViolations = (value: unknown, path = "transaction"): Array<string> => {
  const out = fieldViolations(value, TRANSACTION, path)
  if (out.length > 0) return out
  const t = value as Record<string, unknown>
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/u.test(t.date as string))
    out.push(`${path}.date: not ISO 8601`)
  if (!/^[A-Z]{3}$/u.test(t.currency as string)) out.push(`${path}.currency: not ISO 4217`)
  if (t.category !== null) {
    out.push(...fieldViolations(t.category, CATEGORY, `${path}.category`))
    if (!/^#[0-9A-Fa-f]{6}$/u.test((t.category as { color: string }).color)) out.push(`${path}.category.color: not hex`)
  }
  if (t.account !== null) {
    out.push(...fieldViolations(t.account, ACCOUNT, `${path}.account`))
    const connection = (t.account as { connection: unknown }).connection
    if (connection !== null) out.push(...fieldViolations(connection, CONNECTION, `${path}.account.connection`))
  }
  for (const [i, tag] of ((t.tags as ReadonlyArray<unknown>) ?? []).entries()) {
    out.push(...fieldViolations(tag, TAG, `${path}.tags[${i}]`))
  }
  for (const [i, attachment] of ((t.attachments as ReadonlyArray<unknown>) ?? []).entries()) {
    out.push(...fieldViolations(attachment, ATTACHMENT, `${path}.attachments[${i}]`))
    const segments = (attachment as { path: ReadonlyArray<unknown> }).path
    if (!segments.every((s) => typeof s === "string")) out.push(`${path}.attachments[${i}].path: not strings`)
  }
  return out
}
