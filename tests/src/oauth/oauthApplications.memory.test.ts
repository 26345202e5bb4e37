import { PortsMemory } from "@svc/adapters-memory"
import { oauthApplicationsContract } from "./OAuthApplicationsContract.ts"

oauthApplicationsContract("in-memory", PortsMemory)
