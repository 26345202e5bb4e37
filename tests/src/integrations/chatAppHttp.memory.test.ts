import { PortsMemory } from "@svc/adapters-memory"
import { chatAppHttpSuite } from "./ChatAppHttpSuite.ts"

chatAppHttpSuite("memory", PortsMemory)
