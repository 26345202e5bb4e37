import { Effect, FileSystem, Path } from "effect"
import {
  HttpRouter,
  type HttpServerRequest,
  HttpServerRespondable,
  HttpServerResponse,
  HttpStaticServer
} from "effect/http"

/**
 * The built dashboard's policy: its own scripts and styles only (no inline script), API calls to this origin, and no
 * page may frame it.
 */
const DASHBOARD_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

/** Vite names every built asset after its content: a changed file is a new URL, so a cached one never goes stale. */
const IMMUTABLE = "public, max-age=31536000, immutable"

const notBuilt = HttpServerResponse.text(
  "The dashboard is not built: run `npm run build:dashboard` (or set DASHBOARD_DIR to a built dashboard).\n",
  { status: 503 }
)

/** The answer for a file of the build: assets cached for good, index.html revalidated on every load. */
const withCaching = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeaders(
    response,
    request.url.startsWith("/assets/") && response.status < 300
      ? { "cache-control": IMMUTABLE }
      : { "cache-control": "no-cache", "content-security-policy": DASHBOARD_POLICY }
  )

/**
 * The dashboard web app (`dir`, a Vite build) at `/dashboard/*`: a path without a file is the app's own route and gets
 * its index.html; when `dir` holds no build, `/dashboard` answers 503 saying how to build it.
 */
export const DashboardRoutes = (dir: string) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* Path.Path
      const built = yield* fs.exists(path.join(dir, "index.html")).pipe(Effect.orElseSucceed(() => false))
      const dashboard = router.prefixed("/dashboard")
      if (!built) {
        yield* dashboard.add("GET", "/*", notBuilt)
        return
      }
      const files = yield* HttpStaticServer.make({ root: dir, spa: true, index: "index.html" })
      yield* dashboard.add("GET", "/*", (request) =>
        files.pipe(
          Effect.catch(HttpServerRespondable.toResponse),
          Effect.map((response) => withCaching(request, response))
        )
      )
    })
  )
