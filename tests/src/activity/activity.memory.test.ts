import { PortsMemory } from "@svc/adapters-memory"
import { activityContract } from "./ActivityContract.ts"

activityContract("in-memory", PortsMemory)
