import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

/** The parts of the agent-spend surface a change can touch. */
export const ChangelogSurface = Schema.Literals(["api", "sdk", "cli", "mcp"])

/** One dated change to the agent-spend surface: what changed, whether it breaks clients, and what to do. */
export const ChangelogEntry = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/u)),
  date: Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u)),
  title: Schema.String,
  surfaces: Schema.Array(ChangelogSurface),
  breaking: Schema.Boolean,
  change: Schema.String,
  action: Schema.String
})
export type ChangelogEntry = typeof ChangelogEntry.Type

/** The changelog, newest entry first: one document, not a paged list. */
export const Changelog = Schema.Struct({ entries: Schema.Array(ChangelogEntry) })

/** The machine-readable changelog of the agent-spend surface (`/v1`, SDK, CLI, MCP). */
export class ChangelogApi extends HttpApiGroup.make("changelog").add(
  HttpApiEndpoint.get("list", "/changelog", { success: Changelog })
    .annotate(OpenApi.Summary, "Read the changelog")
    .annotate(
      OpenApi.Description,
      "Every dated change to `/v1`, the SDK, the CLI and the MCP tools, newest first: what changed, whether it " +
        "breaks clients (`breaking`) and what to do (`action`). Public; the same entries as CHANGELOG.md."
    )
) {}
