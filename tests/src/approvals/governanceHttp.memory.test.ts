import { PortsMemory } from "@svc/adapters-memory"
import { governanceHttpSuite } from "./GovernanceHttpSuite.ts"

governanceHttpSuite("memory", PortsMemory)
