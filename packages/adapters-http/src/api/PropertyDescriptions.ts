/** The part of a JSON Schema the property-description lint reads. */
interface JsonSchema {
  readonly $ref?: string
  readonly description?: string
  readonly properties?: Record<string, JsonSchema>
  readonly items?: JsonSchema | ReadonlyArray<JsonSchema>
  readonly prefixItems?: ReadonlyArray<JsonSchema>
  readonly additionalProperties?: JsonSchema | boolean
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly allOf?: ReadonlyArray<JsonSchema>
  readonly type?: string | ReadonlyArray<string>
}

interface Parameter {
  readonly name: string
  readonly in: string
  readonly description?: string
  readonly schema?: JsonSchema
}

interface Operation {
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: JsonSchema }> }
  readonly responses?: Record<string, { readonly content?: Record<string, { readonly schema?: JsonSchema }> }>
}

interface Document {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components?: { readonly schemas?: Record<string, JsonSchema> }
}

/** The paths whose operations must describe every property: the public agent API. */
const DOCUMENTED_PREFIX = "/v1/"

const hasText = (text: string | undefined) => (text ?? "").trim() !== ""

/**
 * Every property of a `/v1` operation's parameters, request body and 2xx responses that has no description, one
 * line each (`GET /v1/accounts/{id} response 200: balance.available`). The walk follows `$ref`, array items,
 * maps and unions; a property counts as described when its schema, its `$ref` target, or every non-null member of
 * its union has a description.
 */
export const undescribedProperties = (document: Record<string, unknown>): ReadonlyArray<string> => {
  const spec = document as unknown as Document
  const components = spec.components?.schemas ?? {}
  const resolve = (schema: JsonSchema): JsonSchema | undefined =>
    schema.$ref === undefined ? schema : components[schema.$ref.replace("#/components/schemas/", "")]

  const isNull = (schema: JsonSchema) => schema.type === "null"
  const described = (schema: JsonSchema): boolean => {
    if (hasText(schema.description)) return true
    if (schema.$ref !== undefined) return hasText(resolve(schema)?.description)
    const members = schema.anyOf ?? schema.oneOf
    if (members === undefined) return false
    const nonNull = members.filter((member) => !isNull(member))
    return nonNull.length > 0 && nonNull.every(described)
  }

  const walk = (schema: JsonSchema, at: string, seen: ReadonlySet<string>): ReadonlyArray<string> => {
    if (schema.$ref !== undefined) {
      if (seen.has(schema.$ref)) return []
      const target = resolve(schema)
      return target === undefined ? [] : walk(target, at, new Set([...seen, schema.$ref]))
    }
    const join = (name: string) => (at === "" ? name : `${at}.${name}`)
    const items = schema.items === undefined ? [] : Array.isArray(schema.items) ? schema.items : [schema.items]
    const nested: ReadonlyArray<readonly [JsonSchema, string]> = [
      ...[...items, ...(schema.prefixItems ?? [])].map((item) => [item, `${at}[]`] as const),
      ...(typeof schema.additionalProperties === "object" ? [[schema.additionalProperties, `${at}{}`] as const] : []),
      ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].map(
        (member) => [member, at] as const
      )
    ]
    return [
      ...Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [
        ...(described(property) ? [] : [join(name)]),
        ...walk(property, join(name), seen)
      ]),
      ...nested.flatMap(([member, where]) => walk(member, where, seen))
    ]
  }

  const bodies = (content: Record<string, { readonly schema?: JsonSchema }> | undefined) =>
    Object.values(content ?? {}).flatMap((media) => (media.schema === undefined ? [] : [media.schema]))

  return Object.entries(spec.paths)
    .filter(([path]) => path.startsWith(DOCUMENTED_PREFIX))
    .flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const where = `${method.toUpperCase()} ${path}`
        const parameters = (operation.parameters ?? []).flatMap((parameter) => {
          const name = `${where} ${parameter.in} parameter ${parameter.name}`
          const schema = parameter.schema ?? {}
          return [
            ...(hasText(parameter.description) || described(schema) ? [] : [name]),
            ...walk(schema, "", new Set()).map((property) => `${name}: ${property}`)
          ]
        })
        const request = bodies(operation.requestBody?.content).flatMap((schema) =>
          walk(schema, "", new Set()).map((property) => `${where} request body: ${property}`)
        )
        const responses = Object.entries(operation.responses ?? {})
          .filter(([status]) => status.startsWith("2"))
          .flatMap(([status, response]) =>
            bodies(response.content).flatMap((schema) =>
              walk(schema, "", new Set()).map((property) => `${where} response ${status}: ${property}`)
            )
          )
        return [...new Set([...parameters, ...request, ...responses])]
      })
    )
}
