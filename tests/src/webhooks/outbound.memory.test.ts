import { PortsMemory } from "@svc/domain/memory"
import { outboundSuite } from "./OutboundSuite.ts"

outboundSuite("memory", PortsMemory)
