import { PortsMemory } from "@svc/adapters-memory"
import { spendDecisionsContract } from "./SpendDecisionsContract.ts"

spendDecisionsContract("in-memory", PortsMemory)
