import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { fileKeyOf, jsonOf, pdfBytes, upload } from "../finance/documents/DocumentsSetup.ts"
import { type Client, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"

const q = encodeURIComponent

/** A team with one stored document, its file key and the document's vault path. */
const teamWithFile = async (app: Client, filename = "report.pdf") => {
  const team = await setUpKeyedTeam(app)
  const content = pdfBytes(5000)
  const stored = await upload(app, team.owner, [["file", { filename, type: "application/pdf", content }]])
  assert.strictEqual(stored.status, 201)
  return { team, content, path: jsonOf(stored).path as string, fk: await fileKeyOf(app, team.owner) }
}

/** GET /files/proxy and /files/download/file: the file key, the path rules, streaming. */
export const fileAccessHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`files over HTTP (${name})`, (it) => {
    it.effect("with the team's key a file reads byte for byte, with or without the vault/ prefix", () =>
      withAppOnPorts(async (app) => {
        const { content, path, fk } = await teamWithFile(app)
        for (const given of [path, path.slice("vault/".length)]) {
          const proxied = await app.rawCall(`/files/proxy?filePath=${q(given)}&fk=${q(fk)}`)
          assert.strictEqual(proxied.status, 200)
          assert.strictEqual(proxied.headers.get("content-type"), "application/octet-stream")
          assert.deepStrictEqual(proxied.bytes, content)
          const downloaded = await app.rawCall(`/files/download/file?path=${q(given)}&fk=${q(fk)}`)
          assert.strictEqual(downloaded.status, 200)
          assert.strictEqual(downloaded.headers.get("content-type"), "application/pdf")
          assert.strictEqual(downloaded.headers.get("content-length"), String(content.byteLength))
          assert.deepStrictEqual(downloaded.bytes, content)
        }
        const named = await app.rawCall(
          `/files/download/file?path=${q(path)}&fk=${q(fk)}&filename=${q("Récap été.pdf")}`
        )
        assert.strictEqual(
          named.headers.get("content-disposition"),
          `attachment; filename="R_cap _t_.pdf"; filename*=UTF-8''R%C3%A9cap%20%C3%A9t%C3%A9.pdf`
        )
      })
    )

    it.effect("another team's key: 401 on download, 404 on proxy; a missing key is 400; a missing file 404", () =>
      withAppOnPorts(async (app) => {
        const acme = await teamWithFile(app)
        const globex = await teamWithFile(app)
        const download = await app.rawCall(`/files/download/file?path=${q(acme.path)}&fk=${q(globex.fk)}`)
        assert.strictEqual(download.status, 401)
        assert.strictEqual(jsonOf(download).error, "unauthorized")
        const proxy = await app.rawCall(`/files/proxy?filePath=${q(acme.path)}&fk=${q(globex.fk)}`)
        assert.strictEqual(proxy.status, 404)
        assert.strictEqual(jsonOf(proxy).error, "not_found")
        for (const path of [`/files/download/file?path=${q(acme.path)}`, `/files/proxy?filePath=${q(acme.path)}`]) {
          const answer = await app.rawCall(path)
          assert.strictEqual(answer.status, 400)
          assert.isString(jsonOf(answer).error)
        }
        assert.strictEqual((await app.rawCall(`/files/proxy?filePath=${q(acme.path)}&fk=`)).status, 400)
        const missing = `${acme.team.id}/documents/nothing-here.pdf`
        assert.strictEqual((await app.rawCall(`/files/download/file?path=${q(missing)}&fk=${q(acme.fk)}`)).status, 404)
        assert.strictEqual((await app.rawCall(`/files/proxy?filePath=${q(missing)}&fk=${q(acme.fk)}`)).status, 404)
      })
    )

    it.effect("traversal, encoded or not, absolute paths and backslashes are 400 and never read", () =>
      withAppOnPorts(async (app) => {
        const acme = await teamWithFile(app)
        const globex = await teamWithFile(app)
        const theirs = globex.path.slice("vault/".length)
        const attempts = [
          `${acme.team.id}/../${theirs}`,
          `vault/${acme.team.id}/../${theirs}`,
          `${acme.team.id}/%2e%2e%2f${theirs}`,
          `vault/${acme.team.id}/%2e%2e%2f${theirs}`,
          `${acme.team.id}/..%2f${theirs}`,
          `${acme.team.id}/%252e%252e%252f${theirs}`,
          `${acme.team.id}/documents/..`,
          `/${globex.path}`,
          `/etc/passwd`,
          `${acme.team.id}\\..\\${theirs}`,
          `${acme.team.id}/documents\\report.pdf`,
          `../${acme.path}`,
          `vault/../${acme.path}`
        ]
        for (const attempt of attempts) {
          for (const [route, field] of [
            ["/files/download/file", "path"],
            ["/files/proxy", "filePath"]
          ] as const) {
            const answer = await app.rawCall(`${route}?${field}=${q(attempt)}&fk=${q(acme.fk)}`)
            assert.strictEqual(answer.status, 400, `${route} ${attempt}: ${new TextDecoder().decode(answer.bytes)}`)
            assert.strictEqual(jsonOf(answer).error, "invalid_path")
          }
        }
      })
    )
  })
