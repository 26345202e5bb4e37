import { PortsMemory } from "@svc/adapters-memory"
import { categoriesHttpSuite } from "./CategoriesHttpSuite.ts"

categoriesHttpSuite("memory", PortsMemory)
