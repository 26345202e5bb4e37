import { PortsMemory } from "@svc/adapters-memory"
import { installStatesHttpSuite } from "./InstallStatesHttpSuite.ts"

installStatesHttpSuite("memory", PortsMemory)
