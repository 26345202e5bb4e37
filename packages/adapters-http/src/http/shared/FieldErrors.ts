import { badRequest, notFound } from "../../api/shared/index.ts"

/** 400 `validation_failed` naming one field of the request. */
export const invalidField = (field: string, message: string) =>
  badRequest("validation_failed", `invalid request: ${field}: ${message}`, [{ path: field, message }])

/** 404 for an id the team does not have: in the path (no field) or named by a field of the request. */
export const missingResource = (what: string, id: string, field: string | null) =>
  notFound(field === null ? `no ${what} ${id}` : `${field}: no ${what} ${id}`)
