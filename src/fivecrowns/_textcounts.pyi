import numpy as np
import numpy.typing as npt

def text_counts(data: npt.NDArray[np.uint8], offsets: npt.NDArray[np.int64],
                out: npt.NDArray[np.uint8], flagged: npt.NDArray[np.uint8],
                two: npt.NDArray[np.int16], ten: npt.NDArray[np.int16], decks: int,
                max_cards: int) -> None: ...
