import { PortsMemory } from "@svc/adapters-memory"
import { inboundProcessingSuite } from "./InboundProcessingSuite.ts"

inboundProcessingSuite("memory", PortsMemory)
