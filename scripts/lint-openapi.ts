import { createConfig, lintFromString } from "@redocly/openapi-core"
import { Api } from "@svc/adapters-http/api"
import { OpenApi } from "effect/http-api"

const problems = await lintFromString({
  source: JSON.stringify(OpenApi.fromApi(Api), null, 2),
  absoluteRef: "openapi.json",
  config: await createConfig({ extends: ["recommended"] })
})
for (const problem of problems) {
  const where = problem.location.map((location) => location.pointer).join(", ")
  console.log(`${problem.severity} ${problem.ruleId}: ${problem.message} (${where})`)
}
const errors = problems.filter((problem) => problem.severity === "error").length
console.log(`OpenAPI document: ${errors} errors, ${problems.length - errors} warnings (Redocly recommended)`)
process.exitCode = errors === 0 ? 0 : 1
