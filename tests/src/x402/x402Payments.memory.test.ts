import { PortsMemory } from "@svc/adapters-memory"
import { x402Contract } from "./X402Contract.ts"

x402Contract("in-memory", PortsMemory)
