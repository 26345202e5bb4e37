import { PortsMemory } from "@svc/adapters-memory"
import { oauthCodesContract } from "./OAuthCodesContract.ts"

oauthCodesContract("in-memory", PortsMemory)
