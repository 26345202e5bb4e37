import { PortsMemory } from "@svc/adapters-memory"
import { chatIntegrationsContract } from "./ChatIntegrationsContract.ts"

chatIntegrationsContract("in-memory", PortsMemory)
