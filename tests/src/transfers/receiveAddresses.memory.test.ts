import { PortsMemory } from "@svc/adapters-memory"
import { receiveAddressesContract } from "./ReceiveAddressesContract.ts"

receiveAddressesContract("in-memory", PortsMemory)
