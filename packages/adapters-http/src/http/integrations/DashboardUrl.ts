import { Context } from "effect"

/** The dashboard's base URL (no trailing slash): where the integration callbacks send the person back. */
export class DashboardUrl extends Context.Service<DashboardUrl, string>()("@svc/adapters-http/DashboardUrl") {}
