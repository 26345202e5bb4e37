import { PortsMemory } from "@svc/domain/memory"
import { inboundSuite } from "./InboundSuite.ts"

inboundSuite("memory", PortsMemory)
