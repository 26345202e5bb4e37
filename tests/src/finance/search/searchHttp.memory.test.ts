import { PortsMemory } from "@svc/adapters-memory"
import { searchHttpSuite } from "./SearchHttpSuite.ts"

searchHttpSuite("memory", PortsMemory)
