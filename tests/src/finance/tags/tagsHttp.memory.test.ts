import { PortsMemory } from "@svc/adapters-memory"
import { tagsHttpSuite } from "./TagsHttpSuite.ts"

tagsHttpSuite("memory", PortsMemory)
