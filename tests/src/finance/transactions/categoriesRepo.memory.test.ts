import { PortsMemory } from "@svc/adapters-memory"
import { categoriesRepoContract } from "./CategoriesRepoContract.ts"

categoriesRepoContract("memory", PortsMemory)
