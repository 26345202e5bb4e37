import { PortsMemory } from "@svc/adapters-memory"
import { inboundIntakeSuite } from "./InboundIntakeSuite.ts"

inboundIntakeSuite("memory", PortsMemory)
