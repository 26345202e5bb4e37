import { PortsMemory } from "@svc/adapters-memory"
import { oauthTokensContract } from "./OAuthTokensContract.ts"

oauthTokensContract("in-memory", PortsMemory)
