import { PortsMemory } from "@svc/adapters-memory"
import { payoutsHttpSuite } from "./PayoutsHttpSuite.ts"

payoutsHttpSuite("memory", PortsMemory)
