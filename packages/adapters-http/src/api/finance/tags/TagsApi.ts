import { TagView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  Forbidden,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../../shared/index.ts"

/** A tag (SPEC.md's Tag). */
export const TagResponse = TagView

/** SPEC.md's CreateTag; also the body of a rename. */
export const CreateTagRequest = Schema.Struct({
  name: Schema.String.check(
    Schema.isTrimmed({ message: "must not start or end with spaces" }),
    Schema.isBetweenLength(1, 100, { message: "expected 1 to 100 characters" })
  )
})

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** A team's tags. Session, OAuth or generic API key. */
export class TagsApi extends HttpApiGroup.make("tags")
  .add(
    HttpApiEndpoint.get("list", "/tags", { success: Schema.Struct({ data: Schema.Array(TagResponse) }), error: errors })
      .annotate(RequiredScope, "tags.read")
      .annotate(OpenApi.Summary, "List tags")
      .annotate(OpenApi.Description, "Every tag of the team, by name, as `{data}` (SPEC.md's tags list)."),
    HttpApiEndpoint.get("get", "/tags/:id", { params: id, success: TagResponse, error: [...errors, NotFound] })
      .annotate(RequiredScope, "tags.read")
      .annotate(OpenApi.Summary, "Get a tag")
      .annotate(OpenApi.Description, "One tag of the team by id; 404 `not_found` for an id the team does not have."),
    HttpApiEndpoint.post("create", "/tags", {
      payload: CreateTagRequest,
      success: TagResponse.pipe(HttpApiSchema.status(201)),
      error: [...errors, Conflict]
    })
      .annotate(RequiredScope, "tags.write")
      .annotate(OpenApi.Summary, "Create a tag")
      .annotate(OpenApi.Description, "Creates a tag; names are unique in the team (409 `name_taken`)."),
    HttpApiEndpoint.patch("update", "/tags/:id", {
      params: id,
      payload: CreateTagRequest,
      success: TagResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(RequiredScope, "tags.write")
      .annotate(OpenApi.Summary, "Rename a tag"),
    HttpApiEndpoint.delete("delete", "/tags/:id", { params: id, success: TagResponse, error: [...errors, NotFound] })
      .annotate(RequiredScope, "tags.write")
      .annotate(OpenApi.Summary, "Delete a tag")
      .annotate(OpenApi.Description, "Deletes the tag, takes it off every transaction, and answers it.")
  )
  .middleware(PlatformAuth) {}
