import { PortsMemory } from "@svc/adapters-memory"
import { apiKeysContract } from "./ApiKeysContract.ts"

apiKeysContract("in-memory", PortsMemory)
