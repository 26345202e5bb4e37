import { PortsMemory } from "@svc/adapters-memory"
import { trackerHttpSuite } from "./TrackerHttpSuite.ts"

trackerHttpSuite("memory", PortsMemory)
