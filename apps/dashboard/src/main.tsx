import { createClient } from "@svc/sdk"
import { render } from "preact"

const client = createClient({ baseUrl: location.origin, token: "x" })
render(<p>{String(typeof client.treasury.approvals)}</p>, document.getElementById("app")!)
