import { PortsMemory } from "@svc/adapters-memory"
import { oauthContract } from "./OAuthContract.ts"

oauthContract("in-memory", PortsMemory)
