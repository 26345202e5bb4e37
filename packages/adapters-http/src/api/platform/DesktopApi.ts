import { DesktopArch, DesktopTarget, SemVer } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFound } from "../shared/index.ts"

/** What a Tauri-style updater is offered: the newer release with its own platform's build. */
const DesktopUpdateResponse = Schema.Struct({
  version: Schema.String,
  notes: Schema.String,
  pub_date: Schema.String,
  url: Schema.String,
  signature: Schema.String
})

/** The desktop shell of the dashboard: its updater's manifest and the download of its latest build. */
export class DesktopApi extends HttpApiGroup.make("desktop").add(
  HttpApiEndpoint.get("update", "/desktop/update/:target/:arch/:currentVersion", {
    params: { target: DesktopTarget, arch: DesktopArch, currentVersion: SemVer },
    success: [DesktopUpdateResponse, HttpApiSchema.NoContent]
  })
    .annotate(OpenApi.Summary, "Check for a desktop update")
    .annotate(
      OpenApi.Description,
      "The updater endpoint of the desktop app (`/desktop/update/{{target}}/{{arch}}/{{current_version}}` in a " +
        "Tauri configuration): 200 with `{version, notes, pub_date, url, signature}` when the configured release " +
        "is newer than `currentVersion` and has a build for the platform; 204 when the client is current, when the " +
        "release has no build for the platform, or when no release is configured. A bad target, arch or version " +
        "is a 400 naming it."
    ),
  HttpApiEndpoint.get("download", "/desktop/download/:target/:arch", {
    params: { target: DesktopTarget, arch: DesktopArch },
    success: HttpApiSchema.Empty(302),
    error: NotFound
  })
    .annotate(OpenApi.Summary, "Download the latest desktop build")
    .annotate(
      OpenApi.Description,
      "302 to the configured release's build for the platform (`Location`); 404 `not_found` when no release is " +
        "configured or it has no build for the platform."
    )
) {}
