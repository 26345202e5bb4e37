import { PortsMemory } from "@svc/adapters-memory"
import { activityHttpSuite } from "./ActivityHttpSuite.ts"

activityHttpSuite("memory", PortsMemory)
