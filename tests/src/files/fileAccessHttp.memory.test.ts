import { PortsMemory } from "@svc/adapters-memory"
import { fileAccessHttpSuite } from "./FileAccessHttpSuite.ts"

fileAccessHttpSuite("memory", PortsMemory)
