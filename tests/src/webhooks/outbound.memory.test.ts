import { PortsMemory } from "@svc/adapters-memory"
import { outboundSuite } from "./OutboundSuite.ts"

outboundSuite("memory", PortsMemory)
