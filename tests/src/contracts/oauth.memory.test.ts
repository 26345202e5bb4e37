import { PortsMemory } from "@svc/domain/memory"
import { oauthContract } from "./OAuthContract.ts"

oauthContract("in-memory", PortsMemory)
