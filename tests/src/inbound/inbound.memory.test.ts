import { PortsMemory } from "@svc/adapters-memory"
import { inboundSuite } from "./InboundSuite.ts"

inboundSuite("memory", PortsMemory)
